import { useT } from '../context';
import { Icon } from './Icon';

/** The identifier a step is about, with an edit button when it can be changed. */
export function IdentifierLine({ value, editLabel, onEdit }: { value: string; editLabel?: string; onEdit?: () => void }) {
  const t = useT();
  return (
    <div className="cb-identifier">
      <span className="cb-identifier-value">{value}</span>
      {onEdit && (
        <button type="button" className="cb-icon-button" aria-label={editLabel ?? t('common.edit')} title={editLabel} onClick={onEdit}>
          <Icon name="edit" />
        </button>
      )}
    </div>
  );
}
