import { useEffect, useRef } from 'react';
import { Button } from './Button';

interface Props {
  title: string;
  body: string;
  confirm: string;
  cancel?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel?: () => void;
}

/** A modal dialog inside the shadow root: focus moves in, Escape cancels. */
export function Dialog({ title, body, confirm, cancel, danger, onConfirm, onCancel }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, []);
  return (
    <div className="cb-overlay" onKeyDown={(event) => event.key === 'Escape' && (onCancel ?? onConfirm)()}>
      <div ref={ref} className="cb-dialog" role="dialog" aria-modal="true" aria-labelledby="cb-dialog-title" aria-describedby="cb-dialog-body">
        <h2 className="cb-title" id="cb-dialog-title">
          {title}
        </h2>
        <p className="cb-text" id="cb-dialog-body">
          {body}
        </p>
        <div className="cb-dialog-actions">
          {cancel && onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              {cancel}
            </Button>
          )}
          <Button className={danger ? 'cb-danger' : undefined} onClick={onConfirm}>
            {confirm}
          </Button>
        </div>
      </div>
    </div>
  );
}
