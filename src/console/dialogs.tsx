// A confirmation for destructive actions and a box that shows a secret once: native <dialog>s opened
// modally (focus stays inside, Escape cancels, focus returns to the button that opened them).
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorNote, Notice, useConsole } from './context';

interface Pending {
  text: string;
  resolve(confirmed: boolean): void;
}

function Modal({ label, children, onClose }: { label: string; children: ReactNode; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => opener?.focus?.();
  }, []);
  return (
    <dialog ref={ref} aria-label={label} onCancel={(event) => (event.preventDefault(), onClose())} className="dialog">
      {children}
    </dialog>
  );
}

/** `confirm(text)` resolves true when the operator confirms; the element it answers is to be rendered. */
export function useConfirm(): [(text: string) => Promise<boolean>, ReactNode] {
  const { t } = useConsole();
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = useCallback((text: string) => new Promise<boolean>((resolve) => setPending({ text, resolve })), []);
  const answer = (confirmed: boolean) => {
    pending?.resolve(confirmed);
    setPending(null);
  };
  const element = pending ? (
    <Modal label={t('common.confirm')} onClose={() => answer(false)}>
      <p>{pending.text}</p>
      <div className="buttons">
        <button type="button" onClick={() => answer(false)} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="danger" onClick={() => answer(true)}>
          {t('common.confirm')}
        </button>
      </div>
    </Modal>
  ) : null;
  return [confirm, element];
}

/** A secret the server answers once, with the advice to copy it now. */
export function SecretOnce({ label, secret, onClose }: { label: string; secret: string; onClose(): void }) {
  const { t } = useConsole();
  return (
    <Modal label={label} onClose={onClose}>
      <h2>{label}</h2>
      <p>{t('common.copyOnce')}</p>
      <p>
        <output className="secret" aria-label={label} data-testid="secret">
          {secret}
        </output>
      </p>
      <div className="buttons">
        <button type="button" onClick={onClose} autoFocus>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

export interface RunOptions {
  /** asked first; the action runs only when the operator confirms */
  confirm?: string;
  /** said when it is done */
  done?: string | ((answer: unknown) => string);
}

/**
 * The actions of a page: `run` (after a confirmation when asked), its error or notice and the
 * confirmation dialog in `status`, `after` called when an action succeeded (the page loads again).
 */
export function useActions(after?: () => void) {
  const [confirm, confirmation] = useConfirm();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, options: RunOptions = {}): Promise<boolean> => {
    if (options.confirm && !(await confirm(options.confirm))) return false;
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      const answer = await action();
      if (options.done) setNotice(typeof options.done === 'string' ? options.done : options.done(answer));
      after?.();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const status = (
    <>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorNote error={error} />
      {confirmation}
    </>
  );
  return { run, busy, status, setError };
}
