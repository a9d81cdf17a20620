import type { Session, Setup, SignIn } from '@loupe/contract';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { sessionApi } from '../api/session-api.ts';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; setupNeeded: boolean }
  | { status: 'signed-in'; session: Session }
  | { status: 'failed'; error: unknown };

export interface SessionContextValue {
  state: SessionState;
  signIn(input: SignIn): Promise<void>;
  setUp(input: Setup): Promise<void>;
  signOut(): Promise<void>;
  /** Asks the server again (after a 401 from any call, or a change to the user's workspaces). */
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

async function load(): Promise<SessionState> {
  const session = await sessionApi.current();
  if (session) return { status: 'signed-in', session };
  return { status: 'signed-out', setupNeeded: (await sessionApi.setupState()).needed };
}

/** Who is signed in, for every screen: loaded once at start, changed by signing in and out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      setState(await load());
    } catch (error) {
      setState({ status: 'failed', error });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      refresh,
      async signIn(input) {
        setState({ status: 'signed-in', session: await sessionApi.signIn(input) });
      },
      async setUp(input) {
        setState({ status: 'signed-in', session: await sessionApi.setUp(input) });
      },
      async signOut() {
        if (state.status === 'signed-in') await sessionApi.signOut(state.session.csrfToken);
        setState({ status: 'signed-out', setupNeeded: false });
      },
    }),
    [state, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession is used outside SessionProvider');
  return value;
}

/** The signed-in session, for screens under RequireSession. */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedIn is used outside RequireSession');
  return state.session;
}
