import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'link';
  busy?: boolean;
  children: ReactNode;
}

/** A button; while busy it stays in place, shows a small spinner and ignores clicks. */
export function Button({ variant = 'primary', busy = false, children, className, type = 'button', disabled, ...rest }: Props) {
  return (
    <button
      {...rest}
      type={type}
      className={`cb-button cb-${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="cb-spinner-ring cb-small" aria-hidden="true" />}
      <span>{children}</span>
    </button>
  );
}
