import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** something drawn inside the field on the left, e.g. the country picker */
  before?: ReactNode;
}

/** A labelled field whose error is announced and tied to the input. */
export function TextField({ label, value, onChange, error, before, className, ...rest }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`cb-field${error ? ' cb-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="cb-label" htmlFor={id}>
        {label}
      </label>
      <div className="cb-control" part="input">
        {before}
        <input
          {...rest}
          id={id}
          className="cb-input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      {error && (
        <p className="cb-field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
