// What the account view may offer, by the project's user details configuration: adding an identifier
// of a type, making one primary, removing one. The server enforces the same; these rules only decide
// which actions are shown.
import type { IdentifierType, MeIdentifier, UserDetailsConfig } from '../api/types';

/** Whether identifiers of this type log in (without a configuration: yes, the safe assumption). */
function logsIn(config: UserDetailsConfig | undefined, type: IdentifierType): boolean {
  return config?.identifiers.find((c) => c.type === type)?.loginIdentifier !== false;
}

/** A type can be added when the project enables it and the user holds fewer than it allows (default 1). */
export function canAddIdentifier(config: UserDetailsConfig | undefined, type: IdentifierType, all: MeIdentifier[]): boolean {
  const allowed = config?.identifiers.find((c) => c.type === type);
  return !!allowed && all.filter((i) => i.type === type).length < (allowed.maxPerUser ?? 1);
}

export interface IdentifierActions {
  /** the user holds another identifier of this type: the primary one is marked and can be chosen */
  several: boolean;
  /** it may go: it does not log in, or another verified identifier that logs in stays */
  removable: boolean;
}

export function identifierActions(config: UserDetailsConfig | undefined, identifier: MeIdentifier, all: MeIdentifier[]): IdentifierActions {
  const others = all.filter((i) => i.id !== identifier.id);
  return {
    several: others.some((i) => i.type === identifier.type),
    removable: !logsIn(config, identifier.type) || others.some((i) => logsIn(config, i.type) && i.status === 'verified'),
  };
}
