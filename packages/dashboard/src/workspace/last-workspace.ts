const KEY = 'loupe.lastWorkspace';

/** The workspace the dashboard opens next time (per browser). Storage may be off: then the first one. */
export function rememberWorkspace(workspaceId: string): void {
  try {
    localStorage.setItem(KEY, workspaceId);
  } catch {
    // Private mode or storage disabled: nothing to remember with.
  }
}

export function lastWorkspace(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
