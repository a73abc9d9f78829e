import { useT } from '../context';
import { Dialog } from './Dialog';

/**
 * The dialogs of SPEC.md section 8 for a passkey that cannot be created: "already exists" and "not
 * supported", with a header, a body and a confirm button. Shared by the passkey list and passkey-append.
 */
export function PasskeyDialog({ kind, onConfirm }: { kind: 'passkeyAlreadyExists' | 'passkeysNotSupported'; onConfirm: () => void }) {
  const t = useT();
  return <Dialog title={t(`dialogs.${kind}.header`)} body={t(`dialogs.${kind}.body`)} confirm={t('common.ok')} onConfirm={onConfirm} />;
}
