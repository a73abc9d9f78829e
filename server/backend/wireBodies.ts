// The request bodies of the Backend API (backend_api_public_v2.yml), as the server's body checks.
import { LANGUAGES } from '../config/projectConfig.ts';
import { signupAnswersBody } from '../config/signupFields.ts';
import { obj, oneOf, optional, str } from '../schema.ts';

/** `pending` is not offered: a user the host creates is there at once, or disabled. */
const userStatus = oneOf(['active', 'disabled'] as const);

export const userCreateBody = obj({
  /** required, as Corbado's SDK has it (the contract leaves it optional; Corbado's server fails without it) */
  fullName: str({ max: 1000 }),
  status: userStatus,
  explicitWebauthnID: optional(str({ max: 1000 })),
  /** beyond the contract: the host's own id for the user */
  externalID: optional(str({ max: 1000 })),
  /** beyond the contract: the user's answers to the project's sign-up fields, and the language their texts were shown in */
  signupFields: signupAnswersBody,
  signupLanguage: optional(oneOf(LANGUAGES)),
});

export const userUpdateBody = obj({ fullName: optional(str({ max: 1000 })), status: optional(userStatus) });

const identifierStatus = oneOf(['pending', 'verified', 'primary'] as const);

export const identifierCreateBody = obj({
  identifierType: oneOf(['email', 'phone', 'username'] as const),
  identifierValue: str({ max: 1000 }),
  status: identifierStatus,
});

export const identifierUpdateBody = obj({ status: identifierStatus });

export const longSessionUpdateBody = obj({ status: oneOf(['revoked', 'logged_out'] as const) });
