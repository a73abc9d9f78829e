import { useState } from 'react';
import type { IdentifierType } from '../../../core/api/types';
import { checkEmail, checkFullName, checkUsername } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button } from '../../components/Button';
import { Form } from '../../components/Form';
import { PhoneInput } from '../../components/PhoneInput';
import { TextField } from '../../components/TextField';
import { useT } from '../../context';
import { accountErrorText } from './accountErrorText';

interface Props {
  kind: 'fullName' | IdentifierType;
  initial?: string;
  /** an empty name is allowed where the project does not require one */
  optional?: boolean;
  /** stores the value; throws when the server refuses it */
  save: (value: string) => Promise<void>;
  close: () => void;
}

const CHECK = { fullName: checkFullName, email: checkEmail, username: checkUsername };

/**
 * One field of the account (the name, a new identifier, a new username) with save and cancel. What the
 * user typed stays in the field when it is refused, with the reason under it.
 */
export function AccountField({ kind, initial = '', optional, save, close }: Props) {
  const t = useT();
  const [text, setText] = useState(initial);
  const [phone, setPhone] = useState({ text: '', country: DEFAULT_COUNTRY });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const label = t(`fields.${kind}`);

  const submit = async () => {
    let value = text.trim();
    let problem: string | undefined;
    if (kind === 'phone') {
      const checked = checkPhone(phone.text, phone.country);
      value = checked.e164 ?? '';
      problem = checked.problem;
    } else if (!(optional && !value)) problem = CHECK[kind](value);
    if (problem) return setError(t(problem));
    setBusy(true);
    try {
      await save(value);
      close();
    } catch (failure) {
      setError(accountErrorText(failure, kind === 'fullName' ? undefined : kind));
      setBusy(false);
    }
  };

  return (
    <Form className="cb-form cb-account-form" onSubmit={() => void submit()} busy={busy}>
      {kind === 'phone' ? (
        <PhoneInput label={label} value={phone} onChange={(value) => (setPhone(value), setError(undefined))} error={error} autoFocus />
      ) : (
        <TextField
          label={label}
          type={kind === 'email' ? 'email' : 'text'}
          autoComplete={kind === 'fullName' ? 'name' : kind}
          value={text}
          onChange={(value) => (setText(value), setError(undefined))}
          error={error}
          autoFocus
        />
      )}
      <div className="cb-dialog-actions">
        <Button variant="secondary" onClick={close}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={busy}>
          {t('common.save')}
        </Button>
      </div>
    </Form>
  );
}
