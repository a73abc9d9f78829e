import type { ReactNode } from 'react';

/**
 * A screen's heading. It takes the focus (tabindex -1) when a screen without a field appears; views
 * that sit beside others on an account page use level 2.
 */
export function Header({ title, subtitle, level = 1 }: { title: string; subtitle?: ReactNode; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <header className="cb-header">
      <Heading className="cb-title" part="heading" tabIndex={-1}>
        {title}
      </Heading>
      {subtitle && <p className="cb-subtitle">{subtitle}</p>}
    </header>
  );
}
