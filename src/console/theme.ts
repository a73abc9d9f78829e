// Dark mode: by default the system's (prefers-color-scheme, in console.css); the toggle pins light or
// dark on <html data-theme> and remembers it in this browser.

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'corbado-console-theme';

export function storedTheme(storage: Pick<Storage, 'getItem'> | undefined): ThemeChoice {
  const value = storage?.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement, storage?: Pick<Storage, 'setItem' | 'removeItem'>): void {
  if (choice === 'system') {
    delete root.dataset.theme;
    storage?.removeItem(KEY);
  } else {
    root.dataset.theme = choice;
    storage?.setItem(KEY, choice);
  }
}

/** Whether the page shows dark now (the pinned choice, else the system's). */
export function isDark(choice: ThemeChoice, systemDark: boolean): boolean {
  return choice === 'dark' || (choice === 'system' && systemDark);
}
