import { useState } from 'react';
import type { CollectData } from '../../../core/api/types';
import { checkUsername } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Form } from '../../components/Form';
import { Header } from '../../components/Header';
import { PhoneInput, type PhoneValue } from '../../components/PhoneInput';
import { TextField } from '../../components/TextField';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

/** missing-fields: asks for the username or phone number the account still lacks. */
export function MissingFieldsScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<CollectData>();
  const field = block.type === 'phone-collect' ? 'phone' : 'username';
  const [username, setUsername] = useState(field === 'username' ? data.value ?? '' : '');
  const [phone, setPhone] = useState<PhoneValue>({ text: '', country: DEFAULT_COUNTRY });
  const [error, setError] = useState<string>();
  const [lastServerError, setLastServerError] = useState(data.error);
  if (data.error !== lastServerError) {
    setLastServerError(data.error);
    setError(requestErrorText(data.error, field));
  }

  const submit = () => {
    if (field === 'phone') {
      const checked = checkPhone(phone.text, phone.country);
      if (checked.problem !== undefined) return setError(t(checked.problem));
      setError(undefined);
      return void flow.collectPhone(checked.e164);
    }
    const problem = checkUsername(username.trim());
    if (problem) return setError(t(problem));
    setError(undefined);
    void flow.collectUsername(username.trim());
  };

  return (
    <Form onSubmit={submit} busy={busy}>
      <Header title={t('missingFields.header')} subtitle={t(`missingFields.${field}`)} />
      {field === 'phone' ? (
        <PhoneInput label={t('fields.phone')} value={phone} onChange={(next) => (setPhone(next), setError(undefined))} error={error} />
      ) : (
        <TextField
          label={t('fields.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={(next) => (setUsername(next), setError(undefined))}
          error={error}
        />
      )}
      <Button type="submit" busy={busy}>
        {t('common.continue')}
      </Button>
    </Form>
  );
}
