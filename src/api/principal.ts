/** Who an API key speaks for. */
export interface Principal {
  keyId: string;
  workspaceId: string;
  defaultCountryCode: string | null;
}
