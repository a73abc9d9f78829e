import type { ReactNode } from 'react';

export function Header({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <header className="cb-header">
      <h1 className="cb-title">{title}</h1>
      {subtitle && <p className="cb-subtitle">{subtitle}</p>}
    </header>
  );
}
