import { FlowView } from './FlowView';

/** The sign-up view: starts on signup-init. */
export function SignUpView() {
  return <FlowView mode="signup" />;
}
