import { useT } from '../context';
import { Icon } from './Icon';

/**
 * An e-mail address, phone number or username as text: always left to right, and a long one wraps
 * after the "@" and before a dot rather than in the middle of a word.
 */
export function Identifier({ value }: { value: string }) {
  return <span dir="ltr">{value.split(/(?<=@)|(?=\.)/).map((part, i) => (i ? [<wbr key={i} />, part] : part))}</span>;
}

/** The identifier a step is about, with an edit button when it can be changed. */
export function IdentifierLine({ value, editLabel, onEdit }: { value: string; editLabel?: string; onEdit?: () => void }) {
  const t = useT();
  return (
    <div className="cb-identifier">
      <Identifier value={value} />
      {onEdit && (
        <button type="button" className="cb-icon-button" aria-label={editLabel ?? t('common.edit')} title={editLabel} onClick={onEdit}>
          <Icon name="edit" />
        </button>
      )}
    </div>
  );
}
