import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Passkey } from '../../core/api/types';
import { $dark } from '../../core/appearance';
import { CorbadoError } from '../../core/errors';
import { $language } from '../../core/i18n/i18n';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { Header } from '../components/Header';
import { Icon } from '../components/Icon';
import { PasskeyDialog } from '../components/PasskeyDialog';
import { PleaseLogIn } from '../components/PleaseLogIn';
import { Spinner } from '../components/Spinner';
import { useAnnounce, useApp, useT } from '../context';
import { failureText } from '../components/ErrorPopup';
import { formatDate } from '../formatDate';
import { ConfirmItsYou } from './account/ConfirmItsYou';

/** The authenticator's name the server gives (from the passkey's AAGUID), else "Passkey". */
function authenticatorName(t: ReturnType<typeof useT>, passkey: Passkey): string {
  return passkey.aaguidDetails?.name || t('passkeyList.defaultName');
}

/** A passkey as a visitor tells it from the others: its name and when it was created. */
function passkeyLabel(t: ReturnType<typeof useT>, passkey: Passkey, language: string): { name: string; date: string } {
  return { name: authenticatorName(t, passkey), date: formatDate(passkey.created, language) };
}

/**
 * The authenticator's icon for the widget's light or dark mode, as the server sends it (a data: URL; the
 * name beside it says what it is, so it is decorative); the widget's own key when there is none.
 */
function AuthenticatorIcon({ passkey }: { passkey: Passkey }) {
  const dark = useStore($dark);
  const icon = dark ? passkey.aaguidDetails?.iconDark : passkey.aaguidDetails?.iconLight;
  return icon?.startsWith('data:image/') ? <img className="cb-passkey-icon" src={icon} alt="" /> : <Icon name="passkey" className="cb-passkey-icon" />;
}

function PasskeyCard({ passkey, onDelete }: { passkey: Passkey; onDelete: () => void }) {
  const t = useT();
  const language = useStore($language);
  return (
    <li className="cb-passkey">
      <AuthenticatorIcon passkey={passkey} />
      <div className="cb-passkey-body">
        <p className="cb-passkey-name">
          {authenticatorName(t, passkey)}
          {passkey.backupState && (
            <span className="cb-badge-pill" title={t('passkeyList.syncedHint')}>
              <Icon name="sync" /> {t('passkeyList.synced')}
            </span>
          )}
        </p>
        <p className="cb-muted cb-mono">{t('passkeyList.credentialId', { id: passkey.credentialID || passkey.id })}</p>
        <p className="cb-muted">
          {t('passkeyList.created', { date: formatDate(passkey.created, language), browser: passkey.sourceBrowser, os: passkey.sourceOS })}
        </p>
        <p className="cb-muted">{t('passkeyList.lastUsed', { date: formatDate(passkey.lastUsed, language) })}</p>
        <p className="cb-muted">{t(`passkeyList.status.${passkey.status}`)}</p>
      </div>
      <button type="button" className="cb-icon-button" aria-label={t('passkeyList.deleteNamed', passkeyLabel(t, passkey, language))} onClick={onDelete}>
        <Icon name="trash" />
      </button>
    </li>
  );
}

/** The logged-in user's passkeys: one card each, create one for this device, delete with confirmation. */
export function PasskeyListView() {
  const app = useApp();
  const t = useT();
  const announce = useAnnounce();
  const language = useStore($language);
  const card = useRef<HTMLDivElement>(null);
  const user = useStore(app.session.$user);
  const passkeys = useStore(app.account.$passkeys);
  const busy = useStore(app.account.$busy);
  const [deleting, setDeleting] = useState<Passkey>();
  const [dialog, setDialog] = useState<'passkeyAlreadyExists' | 'passkeysNotSupported'>();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    if (user) void app.account.loadPasskeys();
  }, [app, user]);

  if (!user) return <PleaseLogIn />;

  const run = async (action: () => Promise<void>) => {
    setFailure(undefined);
    try {
      await action();
    } catch (error) {
      if (error instanceof CorbadoError && (error.kind === 'passkeyAlreadyExists' || error.kind === 'passkeysNotSupported')) {
        setDialog(error.kind);
      } else if (!(error instanceof CorbadoError && error.kind === 'passkeyChallengeCancelled')) {
        setFailure(failureText(t, undefined, error instanceof CorbadoError ? error : undefined, app.options.customerSupportEmail));
      }
    }
  };

  return (
    <div className="cb-card" part="container" ref={card}>
      <Header title={t('passkeyList.header')} level={2} />
      {failure && (
        <p className="cb-popup" part="error" role="alert">
          {failure}
        </p>
      )}
      {passkeys.state === 'failed' && !passkeys.error.ignorable && (
        <p className="cb-popup" part="error" role="alert">
          {failureText(t, undefined, passkeys.error, app.options.customerSupportEmail)}
        </p>
      )}
      {passkeys.state === 'ready' ? (
        passkeys.value.length ? (
          <ul className="cb-passkeys">
            {passkeys.value.map((passkey) => (
              <PasskeyCard key={passkey.id} passkey={passkey} onDelete={() => setDeleting(passkey)} />
            ))}
          </ul>
        ) : (
          <p className="cb-text cb-muted">{t('passkeyList.empty')}</p>
        )
      ) : (
        passkeys.state === 'loading' && <Spinner />
      )}
      <Button busy={busy} onClick={() => void run(() => app.account.createPasskey())}>
        {t('passkeyList.create')}
      </Button>
      {deleting && (
        <Dialog
          title={t('passkeyList.deleteHeader')}
          body={t('passkeyList.deleteBodyNamed', passkeyLabel(t, deleting, language))}
          confirm={t('passkeyList.deleteConfirm')}
          cancel={t('common.cancel')}
          danger
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(undefined);
            // the deleted passkey's button is gone: the focus goes to the list's heading
            void run(async () => {
              await app.account.deletePasskey(id);
              card.current?.querySelector('h2')?.focus();
              announce(t('passkeyList.deleted'));
            });
          }}
          onCancel={() => setDeleting(undefined)}
        />
      )}
      {dialog && (
        <PasskeyDialog kind={dialog} onConfirm={() => setDialog(undefined)} />
      )}
      <ConfirmItsYou view="passkeys" />
    </div>
  );
}
