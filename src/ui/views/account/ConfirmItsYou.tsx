import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { ReauthView } from '../../../core/account/recentLogin';
import { displayPhone } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useApp, useT } from '../../context';
import { accountErrorText } from './accountErrorText';
import { CodeEntry } from './CodeEntry';

/**
 * "Confirm it's you": shown by the view whose action needs a recent log-in, as a modal dialog (focus
 * inside, Escape cancels, the focus returns to where it was). A passkey, or a code to the address the
 * server names; once the proof is accepted the action runs again and the dialog closes.
 */
export function ConfirmItsYou({ view }: { view: ReauthView }) {
  const { account } = useApp();
  const t = useT();
  const prompt = useStore(account.recentLogin.$prompt);
  const [coding, setCoding] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const cells = useRef<HTMLDivElement>(null);
  // the pressed "Send a code" button is gone: the focus goes to the first digit
  useEffect(() => {
    if (coding) cells.current?.querySelector('input')?.focus();
  }, [coding]);
  if (prompt?.view !== view) return null;
  const { code } = prompt;
  const value = code?.identifierType === 'phone' ? displayPhone(code.value) : code?.value;
  const cancel = () => {
    setCoding(false);
    setError(undefined);
    account.recentLogin.cancel();
  };
  const usePasskey = () => {
    setError(undefined);
    setBusy(true);
    account.recentLogin
      .usePasskey()
      .catch((failure: unknown) => setError(accountErrorText(failure)))
      .finally(() => setBusy(false));
  };
  return (
    <Dialog title={t('user.reauth.header')} body={t(code || prompt.passkey ? 'user.reauth.body' : 'user.reauth.again')} onCancel={cancel}>
      {coding && code ? (
        <div ref={cells}>
          <CodeEntry
            type={code.identifierType}
            value={value!}
            send={() => account.recentLogin.sendCode()}
            submit={(entered) => account.recentLogin.enterCode(entered)}
            close={cancel}
            done={() => setCoding(false)}
          />
        </div>
      ) : (
        <>
          {error && (
            <p className="cb-field-error" role="alert">
              {error}
            </p>
          )}
          <div className="cb-dialog-actions">
            <Button variant="secondary" onClick={cancel}>
              {t('common.cancel')}
            </Button>
            {prompt.passkey && (
              <Button busy={busy} onClick={usePasskey}>
                {t('user.reauth.passkey')}
              </Button>
            )}
            {code && (
              <Button variant={prompt.passkey ? 'secondary' : undefined} onClick={() => setCoding(true)}>
                {t('user.reauth.code', { value: value! })}
              </Button>
            )}
          </div>
        </>
      )}
    </Dialog>
  );
}
