import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from './Button';

interface Props {
  title: string;
  body: string;
  /** without it, the content's own buttons end the dialog (Escape cancels) */
  confirm?: string;
  cancel?: string;
  danger?: boolean;
  onConfirm?: () => void;
  onCancel?: () => void;
  /** more than the body: choices or a form, between the body and the buttons */
  children?: ReactNode;
}

/**
 * A modal dialog in the full sense: the browser's own modal <dialog> (the rest of the page is inert and
 * dimmed, Escape cancels wherever the focus is), Tab and Shift+Tab cycle through its buttons (and fields), and on
 * closing the focus returns to the element that opened it.
 */
export function Dialog({ title, body, confirm, cancel, danger, onConfirm, onCancel, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = (dialog.getRootNode() as ShadowRoot).activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, []);
  const trap = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    // the code cells of "Confirm it's you" belong to the cycle too
    const stops = ref.current!.querySelectorAll('button, input');
    const edge = stops[event.shiftKey ? 0 : stops.length - 1];
    if ((ref.current!.getRootNode() as ShadowRoot).activeElement !== edge) return;
    event.preventDefault();
    (stops[event.shiftKey ? stops.length - 1 : 0] as HTMLElement).focus();
  };
  return (
    <dialog
      ref={ref}
      className="cb-dialog"
      aria-labelledby={`${id}t`}
      aria-describedby={`${id}b`}
      onKeyDown={trap}
      onCancel={(event) => {
        event.preventDefault();
        (onCancel ?? onConfirm)?.();
      }}
    >
      <h2 className="cb-title" part="heading" id={`${id}t`}>
        {title}
      </h2>
      <p className="cb-text" id={`${id}b`}>
        {body}
      </p>
      {children}
      {confirm && (
        <div className="cb-dialog-actions">
          {cancel && onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              {cancel}
            </Button>
          )}
          <Button variant={danger ? 'danger' : undefined} onClick={onConfirm}>
            {confirm}
          </Button>
        </div>
      )}
    </dialog>
  );
}
