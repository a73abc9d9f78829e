import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { IdentifierType, SignupInitData, SocialProvider } from '../../../core/api/types';
import { checkEmail, checkFullName, checkSignupField, checkUsername, signupAnswers } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button, LinkButton } from '../../components/Button';
import { Form } from '../../components/Form';
import { Header } from '../../components/Header';
import { PhoneInput, type PhoneValue } from '../../components/PhoneInput';
import { SocialButtons } from '../../components/SocialButtons';
import { TextField } from '../../components/TextField';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';
import { SignupFieldInput } from './SignupFieldInput';

/** the name, an identifier type, or `field:<id>` of one of the project's sign-up fields */
type Field = 'fullName' | IdentifierType | `field:${string}`;
type Errors = Partial<Record<Field, string>>;

function serverErrors(data: SignupInitData): Errors {
  const errors: Errors = {};
  const fullName = requestErrorText(data.fullName?.error);
  if (fullName) errors.fullName = fullName;
  for (const identifier of data.identifiers ?? []) {
    const text = requestErrorText(identifier.error, identifier.type);
    if (text) errors[identifier.type] = text;
  }
  for (const field of data.signupFields ?? []) {
    const text = requestErrorText(field.error, field.type);
    if (text) errors[`field:${field.id}`] = text;
  }
  return errors;
}

/** What was entered into the project's sign-up fields, as the server last echoed it. */
const fieldAnswers = (data: SignupInitData) => Object.fromEntries((data.signupFields ?? []).map((f) => [f.id, f.value ?? f.accepted ?? '']));

/** Sign up: name, username, e-mail and phone, each only when the block asks for it. */
export function SignupInitScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<SignupInitData>();
  const appName = useStore(flow.$appName);
  const has = (type: IdentifierType) => data.identifiers?.some((i) => i.type === type);
  const initial = (type: IdentifierType) => data.identifiers?.find((i) => i.type === type)?.identifier ?? '';

  const [fullName, setFullName] = useState(data.fullName?.fullName ?? '');
  const [username, setUsername] = useState(initial('username'));
  const [email, setEmail] = useState(initial('email'));
  const [phone, setPhone] = useState<PhoneValue>({ text: initial('phone'), country: DEFAULT_COUNTRY });
  const [answers, setAnswers] = useState<Record<string, string | boolean>>(() => fieldAnswers(data));
  const [errors, setErrors] = useState<Errors>(() => serverErrors(data));

  useEffect(() => {
    setErrors(serverErrors(data));
    // a box the server unticked (its text changed) shows so; everything typed stays
    setAnswers((typed) => ({ ...typed, ...Object.fromEntries((data.signupFields ?? []).filter((f) => f.type === 'checkbox').map((f) => [f.id, !!f.accepted])) }));
  }, [data]);

  const edit = <T,>(field: Field, set: (value: T) => void) => (value: T) => {
    set(value);
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  /** What signup/init sends for the project's fields, and the errors the widget finds in them first. */
  const checkedAnswers = () => {
    const found: Errors = {};
    for (const field of data.signupFields ?? []) {
      const problem = checkSignupField(field, answers[field.id]);
      if (problem) found[`field:${field.id}`] = t(problem);
    }
    return { found, answers: data.signupFields && signupAnswers(data.signupFields, answers) };
  };

  const social = (provider: SocialProvider) => {
    const checked = checkedAnswers();
    setErrors(checked.found);
    if (!Object.keys(checked.found).length) void flow.startSocial(provider, checked.answers);
  };

  const submit = () => {
    const { found, answers: signupFields } = checkedAnswers();
    const fields: { fullName?: string; email?: string; phone?: string; username?: string } = {};
    if (data.fullName) {
      const problem = checkFullName(fullName);
      if (problem) found.fullName = t(problem);
      fields.fullName = fullName.trim();
    }
    if (has('username')) {
      const problem = checkUsername(username.trim());
      if (problem) found.username = t(problem);
      fields.username = username.trim();
    }
    if (has('email')) {
      const problem = checkEmail(email.trim());
      if (problem) found.email = t(problem);
      fields.email = email.trim();
    }
    if (has('phone')) {
      const checked = checkPhone(phone.text, phone.country);
      if (checked.problem) found.phone = t(checked.problem);
      fields.phone = checked.e164;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    void flow.submitSignup(fields, signupFields);
  };

  const login = block.alternatives.find((a) => a.type === 'login-init');

  return (
    <Form onSubmit={submit} busy={busy}>
      <Header title={t('signupInit.header')} subtitle={t('signupInit.subheader', { appName })} />
      {data.fullName && (
        <TextField label={t('fields.fullName')} name="name" autoComplete="name" value={fullName} onChange={edit('fullName', setFullName)} error={errors.fullName} />
      )}
      {has('username') && (
        <TextField
          label={t('fields.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={edit('username', setUsername)}
          error={errors.username}
        />
      )}
      {has('email') && (
        <TextField
          label={t('fields.email')}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          value={email}
          onChange={edit('email', setEmail)}
          error={errors.email}
          dir="ltr"
        />
      )}
      {has('phone') && <PhoneInput label={t('fields.phone')} value={phone} onChange={edit('phone', setPhone)} error={errors.phone} />}
      {data.signupFields?.map((field) => (
        <SignupFieldInput
          key={field.id}
          field={field}
          value={answers[field.id]}
          onChange={edit(`field:${field.id}`, (value: string | boolean) => setAnswers((all) => ({ ...all, [field.id]: value })))}
          error={errors[`field:${field.id}`]}
        />
      ))}
      <Button type="submit" busy={busy}>
        {t('signupInit.submit')}
      </Button>
      <SocialButtons providers={data.socialData?.providers ?? []} disabled={busy} start={data.signupFields && social} />
      {login && (
        <p className="cb-switch">
          {t('signupInit.haveAccount')}{' '}
          <LinkButton onClick={() => flow.switchToAlternative('login-init')}>
            {t('signupInit.logIn')}
          </LinkButton>
        </p>
      )}
    </Form>
  );
}
