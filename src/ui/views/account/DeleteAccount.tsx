import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useApp, useT } from '../../context';
import { accountErrorText } from './accountErrorText';
import { Disclosure } from './Disclosure';

/** Deletes the account after a confirmation; the session ends and a mounted auth view starts over. */
export function DeleteAccount() {
  const app = useApp();
  const t = useT();
  const [error, setError] = useState<string>();
  return (
    <section className="cb-section">
      <Disclosure label={t('user.delete')}>
        {(close) => (
          <Dialog
            title={t('user.deleteHeader')}
            body={t('user.deleteBody')}
            confirm={t('user.delete')}
            cancel={t('common.cancel')}
            danger
            onCancel={close}
            onConfirm={() => {
              close();
              setError(undefined);
              app.deleteAccount().catch((failure: unknown) => setError(accountErrorText(failure)));
            }}
          />
        )}
      </Disclosure>
      {error && (
        <p className="cb-field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
