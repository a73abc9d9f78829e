// Authenticator names by AAGUID (reference/aaguids.tsv), with the kind of icon each gets. The icons are
// the widget's own drawings per kind, in a light and a dark variant; "Chromium Browser" has a name but
// no icon, and unknown AAGUIDs are shown as "Passkey" with the default icon.

export type AuthenticatorKind = 'manager' | 'platform' | 'hardware';

export interface Authenticator {
  name: string;
  /** undefined: the default icon */
  kind?: AuthenticatorKind;
}

const TABLE: Record<string, Authenticator> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': { name: 'Google Password Manager', kind: 'manager' },
  'adce0002-35bc-c60a-648b-0b25f1f05503': { name: 'Chrome on Mac', kind: 'platform' },
  '08987058-cadc-4b81-b6e1-30de50dcbe96': { name: 'Windows Hello', kind: 'platform' },
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': { name: 'Windows Hello', kind: 'platform' },
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': { name: 'Windows Hello', kind: 'platform' },
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': { name: 'iCloud Keychain (Managed)', kind: 'manager' },
  '531126d6-e717-415c-9320-3d9aa6981239': { name: 'Dashlane', kind: 'manager' },
  'bada5566-a7aa-401f-bd96-45619a55120d': { name: '1Password', kind: 'manager' },
  'b84e4048-15dc-4dd0-8640-f4f60813c8af': { name: 'NordPass', kind: 'manager' },
  '0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6': { name: 'Keeper', kind: 'manager' },
  'f3809540-7f14-49c1-a8b3-8f813b225541': { name: 'Enpass', kind: 'manager' },
  'b5397666-4885-aa6b-cebf-e52262a439a2': { name: 'Chromium Browser' },
  '771b48fd-d3d4-4f74-9232-fc157ab0507a': { name: 'Edge on Mac', kind: 'platform' },
  '39a5647e-1853-446c-a1f6-a79bae9f5bc7': { name: 'IDmelon', kind: 'hardware' },
  'd548826e-79b4-db40-a3d8-11116f7e8349': { name: 'Bitwarden', kind: 'manager' },
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': { name: 'iCloud Keychain', kind: 'manager' },
  '53414d53-554e-4700-0000-000000000000': { name: 'Samsung Pass', kind: 'manager' },
  '66a0ccb3-bd6a-191f-ee06-e375c50b9846': { name: 'Thales Bio iOS SDK', kind: 'hardware' },
  '8836336a-f590-0921-301d-46427531eee6': { name: 'Thales Bio Android SDK', kind: 'hardware' },
  'cd69adb5-3c7a-deb9-3177-6800ea6cb72a': { name: 'Thales PIN Android SDK', kind: 'hardware' },
  '17290f1e-c212-34d0-1423-365d729f09d9': { name: 'Thales PIN iOS SDK', kind: 'hardware' },
  '50726f74-6f6e-5061-7373-50726f746f6e': { name: 'Proton Pass', kind: 'manager' },
  'fdb141b2-5d84-443e-8a35-4698c205a502': { name: 'KeePassXC', kind: 'manager' },
};

/** The known authenticator, or undefined: the UI then shows the translated name "Passkey". */
export function authenticatorOf(aaguid: string | undefined): Authenticator | undefined {
  return aaguid ? TABLE[aaguid.toLowerCase()] : undefined;
}
