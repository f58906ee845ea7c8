// State of the emulated campaign service. JSON-serialisable (persisted by --sandbox).
import type { Group, Template } from '../../api/campaign-types.js';

export interface CampaignState {
  groups: Group[];
  balance: { email: number; sms: number };
  templates: Template[];
  capacity: number;
}
