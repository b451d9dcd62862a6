/** A connected number as sends use it, its secrets opened (connected-numbers.ts reads it). */
export interface ConnectedNumber {
  id: string;
  workspaceId: string;
  phoneNumberId: string;
  businessAccountId: string;
  displayPhone: string;
  graphBaseUrl: string;
  messagesPerSecond: number;
  accessToken: string;
  appSecret: string;
  /** Meta refuses to send from the number (number-problems.ts): its sends are held until it is put right. */
  paused: NumberPause | null;
}

export interface NumberPause {
  at: Date;
  code: number;
  reason: string;
}

/** The whole row, as the settings page and the webhook's verification read it. */
export type StoredNumber = ConnectedNumber & {
  verifyTokenHash: string;
  templatesSyncedAt: Date | null;
  connectedAt: Date;
  verifiedName: string | null;
  qualityRating: string | null;
  messagingLimitTier: string | null;
};
