import type { ReactNode } from 'react';

/** The frame of the screens a visitor reaches signed out from a link (an invite, a password reset): a card on its own. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <main className="centered-page" id="main">
      <div className="card auth-card">
        <p className="brand">Loupe</p>
        {children}
      </div>
    </main>
  );
}
