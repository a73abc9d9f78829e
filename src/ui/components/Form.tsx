import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A form that checks its own fields (noValidate). After a submit that leaves a field invalid, found by
 * the screen or by the server, the focus moves to the first invalid field.
 */
export function Form({ onSubmit, busy, className = 'cb-form', children }: { onSubmit: () => void; busy: boolean; className?: string; children: ReactNode }) {
  const form = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  const [, setSubmits] = useState(0);
  useEffect(() => {
    if (!submitted.current || busy) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!invalid) return;
    submitted.current = false;
    invalid.focus();
  });
  return (
    <form
      ref={form}
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submitted.current = true;
        setSubmits((n) => n + 1);
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
