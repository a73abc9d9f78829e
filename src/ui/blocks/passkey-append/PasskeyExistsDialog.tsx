import { useStore } from '@nanostores/react';
import { PasskeyDialog } from '../../components/PasskeyDialog';
import { useApp } from '../../context';

/** Over the passkey-append screens, when the device already holds a passkey of the account; confirm completes. */
export function PasskeyExistsDialog() {
  const { flow } = useApp();
  const failure = useStore(flow.$ceremonyError);
  return failure?.kind === 'passkeyAlreadyExists' ? <PasskeyDialog kind={failure.kind} onConfirm={() => void flow.confirmPasskeyExists()} /> : null;
}
