import { useStore } from '@nanostores/react';
import { useId } from 'react';
import type { SignupField } from '../../../core/api/types';
import { $language } from '../../../core/i18n/i18n';
import { TextField } from '../../components/TextField';
import { useT } from '../../context';

/** A project's label in the widget's language, else the English one. */
export function fieldLabel(label: Record<string, string> | undefined, language: string): string {
  return label?.[language] ?? label?.en ?? '';
}

/**
 * One of the project's sign-up fields: a text field, or a checkbox whose label links the words in
 * [brackets] to the text agreed to (opened in a new tab, so nothing typed is lost).
 */
export function SignupFieldInput({ field, value, onChange, error }: { field: SignupField; value: string | boolean | undefined; onChange: (value: string | boolean) => void; error?: string }) {
  const t = useT();
  const id = useId();
  const label = fieldLabel(field.label, useStore($language));
  if (field.type === 'text') {
    return <TextField label={field.required ? label : t('fields.optional', { label })} value={typeof value === 'string' ? value : ''} onChange={onChange} error={error} aria-required={field.required || undefined} />;
  }
  const [before, linked, after] = label.split(/[[\]]/);
  return (
    <div className={`cb-field cb-check${error ? ' cb-invalid' : ''}`}>
      <label>
        <input
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          aria-required={field.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? id : undefined}
        />
        <span>
          {before}
          {field.url && (
            <a className="cb-link" part="link" href={field.url} target="_blank" rel="noopener noreferrer">
              {linked}
            </a>
          )}
          {after}
        </span>
      </label>
      {error && (
        <p className="cb-field-error" id={id} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
