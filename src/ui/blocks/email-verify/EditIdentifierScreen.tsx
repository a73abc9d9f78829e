import { useState } from 'react';
import type { IdentifierType, PasskeyAppendData, VerifyIdentifierData } from '../../../core/api/types';
import { checkEmail, checkUsername } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Form } from '../../components/Form';
import { Header } from '../../components/Header';
import { PhoneInput, type PhoneValue } from '../../components/PhoneInput';
import { TextField } from '../../components/TextField';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

/**
 * edit-email, edit-phone and edit-user-data: change the identifier being verified (the submit button is
 * labelled by the verification method) or the one a passkey is created for. Cancel returns unchanged.
 */
export function EditIdentifierScreen({ type }: { type: IdentifierType }) {
  const { flow } = useApp();
  const t = useT();
  const { block, busy } = useBlock<VerifyIdentifierData & PasskeyAppendData>();
  const onAppend = block.type === 'passkey-append';
  const current = (onAppend ? block.data.identifierValue : block.data.identifier) as string;
  const [value, setValue] = useState(type === 'phone' ? '' : current);
  const [phone, setPhone] = useState<PhoneValue>({ text: '', country: DEFAULT_COUNTRY });
  const [error, setError] = useState<string>();
  const back = onAppend ? 'passkey-append' : type === 'phone' ? 'phone-otp' : block.data.verificationMethod === 'email-link' ? 'email-link-sent' : 'email-otp-verification';
  const submitLabel = onAppend ? t('common.save') : t(`edit.submit.${block.data.verificationMethod ?? 'email-otp'}`);

  const submit = async () => {
    let next = value.trim();
    if (type === 'phone') {
      const checked = checkPhone(phone.text, phone.country);
      if (checked.problem !== undefined) return setError(t(checked.problem));
      next = checked.e164;
    } else {
      const problem = type === 'email' ? checkEmail(next) : checkUsername(next);
      if (problem) return setError(t(problem));
    }
    setError(undefined);
    const failure = await flow.updateIdentifier(type, next);
    if (failure) setError(requestErrorText(failure, type));
  };

  return (
    <Form onSubmit={() => void submit()} busy={busy}>
      <Header title={t(`edit.header.${type}`)} subtitle={type === 'phone' ? t('edit.currentPhone', { phone: current }) : undefined} />
      {type === 'phone' ? (
        <PhoneInput label={t('fields.phone')} value={phone} onChange={(next) => (setPhone(next), setError(undefined))} error={error} />
      ) : (
        <TextField
          label={t(`fields.${type}`)}
          name={type}
          type={type === 'email' ? 'email' : 'text'}
          autoComplete={type === 'email' ? 'email' : 'username'}
          spellCheck={false}
          value={value}
          onChange={(next) => (setValue(next), setError(undefined))}
          error={error}
          dir="ltr"
        />
      )}
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={() => flow.setScreen(back)}>
        {t('common.cancel')}
      </Button>
    </Form>
  );
}
