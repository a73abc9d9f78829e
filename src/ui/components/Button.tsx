import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  busy?: boolean;
  children: ReactNode;
}

/**
 * A button; while busy it stays in place, shows a small spinner and ignores clicks. Busy and disabled
 * buttons are aria-disabled, never disabled, so the button that was pressed keeps the focus. Its `part`
 * (button-primary, button-secondary, button-danger; `link` for one that reads as a link) lets host CSS
 * style it (README, "Styling with ::part").
 */
export function Button({ variant = 'primary', busy = false, children, className, type = 'button', disabled, onClick, ...rest }: Props) {
  const inactive = disabled || busy;
  return (
    <button
      part={variant === 'link' ? 'link' : `button-${variant}`}
      {...rest}
      type={type}
      className={`cb-button cb-${variant}${className ? ` ${className}` : ''}`}
      aria-disabled={inactive || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => (inactive ? event.preventDefault() : onClick?.(event))}
    >
      {busy && <span className="cb-spinner-ring cb-small" aria-hidden="true" />}
      {children}
    </button>
  );
}

/** A button that reads as a link (switching between screens and views, "What is a passkey?"). */
export function LinkButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" className="cb-link" part="link" {...props} />;
}
