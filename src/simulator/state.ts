import { randomBytes } from 'node:crypto';

export interface SimNumber {
  phoneNumberId: string;
  businessAccountId: string;
  displayPhone: string;
  accessToken: string;
  appSecret: string;
  webhookUrl: string;
}

export interface SimTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
}

export interface SimMessage {
  wamid: string;
  phoneNumberId: string;
  to: string;
  type: string;
  payload: unknown;
  callbackData?: string;
  receivedAt: number;
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
}

export interface Faults {
  /** Added to every Graph request, in ms. */
  latencyMs: number;
  /** Share of sends answered with a 500 (0 to 1). */
  serverErrorRate: number;
  /** Share of sends answered with error 130429 (throughput). */
  throughputErrorRate: number;
  /** Share of sends that never answer (the client times out). */
  timeoutRate: number;
}

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Everything the simulated network knows; in memory, as it is a stand-in for Meta's servers. */
export class SimState {
  readonly numbers = new Map<string, SimNumber>();
  readonly templates = new Map<string, SimTemplate[]>();
  readonly messages: SimMessage[] = [];
  /** Last time each user wrote to each number: `${phoneNumberId}:${user}`. */
  readonly lastInbound = new Map<string, number>();
  faults: Faults = { latencyMs: 0, serverErrorRate: 0, throughputErrorRate: 0, timeoutRate: 0 };
  statusDelaysMs: [number, number, number] = [20, 40, 60];
  clockOffsetMs = 0;

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  numberByWaba(wabaId: string): SimNumber | undefined {
    return [...this.numbers.values()].find((n) => n.businessAccountId === wabaId);
  }

  windowOpen(phoneNumberId: string, user: string): boolean {
    const last = this.lastInbound.get(`${phoneNumberId}:${user}`);
    return last !== undefined && this.now() - last < WINDOW_MS;
  }

  static wamid(): string {
    return `wamid.${randomBytes(24).toString('base64url')}`;
  }
}
