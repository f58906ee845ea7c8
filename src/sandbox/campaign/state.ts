// State of the emulated campaign service. Plain JSON (persisted by --sandbox between runs), so
// no Maps, Sets, Dates or class instances in here: times are ISO strings or epoch ms.
import type { CampaignStatus, Group, ImportStatus, ReportLink, Template } from './types.js';

export type FieldType = 'string' | 'number' | 'date';

/** A custom field, created "in the back office" (here: the sandbox-only /_sandbox/fields route). */
export interface SbField {
  name: string;
  type: FieldType;
  createDate: string;
}

/** A group as stored: the spec's fields (section 2) plus what the sandbox needs to compute them. */
export interface SbGroup extends Group {
  /** Members counted but not stored (beyond MAX_STORED_CONTACTS, see contacts.ts). */
  unstored: number;
  /** Send records of the group's campaigns, for openedRate / clickedRate. */
  delivered: number;
  opened: number;
  clicked: number;
}

export interface SbContact {
  /** As first written (the key is the lower-cased address). */
  email: string;
  name: string;
  fields: Record<string, string>;
  /** Group codes this contact belongs to. */
  lists: string[];
  /** Delivery state that makes the contact an "invalid member" (excludeCnt) and skips it on send. */
  suppressed?: 'BOUNCE' | 'UNSUBSCRIBE' | 'COMPLAINT';
  createDate: string;
  updateDate: string;
}

export interface SbImport {
  importSn: string;
  listSn: string;
  source: 'file' | 'text';
  status: ImportStatus;
  createdAt: number;
  createDate: string;
  /** When PROCESSING began (ms): the terminal status comes delays.importProcessing later at the earliest. */
  processingSince?: number;
  completedDate?: string;
  fileCnt: number;
  insertCnt: number;
  duplicateCnt: number;
  errCnt: number;
  errorDownloadLink?: string;
  webhookUrl?: string;
  /** Stored data file (under dataDir/files) while it waits to be processed. */
  file?: string;
  uploadToken?: string;
  /** Why the import failed as a whole (sandbox diagnostics; not part of the spec's body). */
  reason?: string;
}

export type SbCampaignStatus = CampaignStatus;

/** The content fields the sandbox keeps (what reports and the status lookup need). */
export interface SbContent {
  subject?: string;
  preheader?: string;
  fromName?: string;
  fromAddress?: string;
  htmlContent?: string;
  footerLang?: number;
  testingOn?: number;
  subjectA?: string;
  subjectB?: string;
  fromNameA?: string;
  fromNameB?: string;
  fromAddressA?: string;
  fromAddressB?: string;
  htmlContentA?: string;
  htmlContentB?: string;
}

export interface SbCampaign {
  sn: string;
  name: string;
  /** 'list': sent to groups (endpoints 7, 9); 'once': sent to an uploaded list (8, 10). */
  audience: 'list' | 'once';
  ab: boolean;
  status: SbCampaignStatus;
  content: SbContent;
  selectedLists: string[];
  excludeLists: string[];
  scheduleType: 0 | 1;
  timezone?: number;
  /** Scheduled send time (ms) for scheduleType 1. */
  scheduledAt?: number;
  ecommerce: boolean;
  proportion: number;
  testTime: number;
  testUnit: 0 | 1;
  createdAt: number;
  updatedAt: number;
  /** When the current phase (PREPARE_TO_SENT, TESTING, SENDING) ends, ms. */
  phaseStart?: number;
  phaseUntil?: number;
  /** Written by older sandboxes (a list counted after its phase ended); removed when seen. */
  waitedForList?: boolean;
  recipientCnt: number;
  testCnt: number;
  sentCnt: number;
  sentBeginAt?: number;
  sentEndAt?: number;
  winner?: 'A' | 'B';
  /** A/B: when the test window ended and the winner was chosen (ms). */
  testEndAt?: number;
  /** Once-campaigns: the uploaded list (file under dataDir/files) and its row count once counted. */
  listFile?: string;
  listRows?: number;
  uploadToken?: string;
  export?: SbExport;
}

export interface SbExport {
  requestedAt: number;
  readyAt: number;
  webhookUrl?: string;
  /** Set once the files are generated. */
  links?: ReportLink[];
  /** The webhook for this request has been queued. */
  notified?: boolean;
}

export interface CampaignState {
  groups: SbGroup[];
  contacts: Record<string, SbContact>;
  fields: SbField[];
  imports: SbImport[];
  campaigns: SbCampaign[];
  balance: { email: number; sms: number };
  templates: Template[];
  capacity: number;
  /** Time of the last accepted export call (1 per 10 s, endpoint 16). */
  lastExportAt?: number;
}
