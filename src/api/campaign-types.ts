// Types of the campaign service (spec 000). Input is read tolerantly: fields the spec calls
// optional or "not shown" are optional here.

export interface Group {
  sn: string;
  name: string;
  type?: number;
  status?: 'GENERAL' | 'PROCESSING' | string;
  subscribedCnt?: number;
  excludeCnt?: number;
  openedRate?: number;
  clickedRate?: number;
  segVersion?: number;
  createDate?: string;
  updateDate?: string;
}

export type ImportStatus = 'UPLOADING' | 'PROCESSING' | 'COMPLETE' | 'DUPLICATE_HEADER' | 'ERROR' | 'MISSING_REQUIRED_DATA';
export const IMPORT_TERMINAL: ReadonlySet<string> = new Set(['COMPLETE', 'DUPLICATE_HEADER', 'ERROR', 'MISSING_REQUIRED_DATA']);

export interface ImportResult {
  importSn: string;
  status: ImportStatus | string;
  fileCnt?: number;
  insertCnt?: number;
  duplicateCnt?: number;
  errCnt?: number;
  createDate?: string;
  completedDate?: string;
  errorDownloadLink?: string;
}

export interface ImportStarted {
  importSn: string;
  /** Upload address (file import only). */
  url?: string;
}

export type FilterColumn = 'NAME' | 'MAIL_ADDRESS' | 'DOMAIN' | 'LISTSN' | string;
export type FilterOperator = 'EQ' | 'NOT_EQ' | 'LIKE' | 'NOT_LIKE';
export interface RemovalFilter {
  columnName: FilterColumn;
  operator: FilterOperator;
  value: string;
}
export type RemovalBody = { filters: RemovalFilter[] } | { keys: string[] };

/** Spec 000 endpoint 6's answer, and whether it answers a retry after an attempt whose answer was lost. */
export interface RemovalResult {
  updated_count: number;
  /** The count is the retry's alone: what the lost attempt removed is not in it. */
  retriedAfterLostAnswer: boolean;
}

export interface CampaignForm {
  name: string;
  selectedLists?: string[];
  excludeLists?: string[];
}

export interface CampaignContent {
  preheader?: string;
  subject?: string;
  fromName?: string;
  fromAddress?: string;
  htmlContent?: string;
  footerLang: 0 | 1;
  // A/B fields (endpoints 9 and 10)
  testingOn?: 1 | 2 | 3;
  testing?: { proportion: number; time: number; unit: 0 | 1 };
  subjectA?: string;
  subjectB?: string;
  preheaderA?: string;
  preheaderB?: string;
  fromNameA?: string;
  fromNameB?: string;
  fromAddressA?: string;
  fromAddressB?: string;
  htmlContentA?: string;
  htmlContentB?: string;
}

export interface CampaignConfig {
  schedule: { type: 0 | 1; timezone?: number; scheduleDate?: string };
  ga: { enable: boolean; ecommerceEnable: boolean; utmCampaign?: string; utmContent?: string };
}

export interface CampaignRequest {
  form: CampaignForm;
  content: CampaignContent;
  config: CampaignConfig;
}

export interface CampaignCreated {
  sn: string;
  /** Once-endpoints: where to PUT the list file. */
  preSignedUrl?: string;
}

export type CampaignStatus =
  | 'DRAFT' | 'COMPLETE' | 'STOP' | 'SENDING' | 'PREPARE' | 'PREPARE_TO_SENT' | 'OVER_LIMIT' | 'TESTING'
  | 'EMPTY_RECIPIENT' | 'INSUFFICIENT_RECIPIENT_FOR_TESTING' | 'UNAUTHENTICATED_SENDER';

export interface Campaign {
  sn: string;
  name: string;
  hasContent?: boolean[] | string;
  status: CampaignStatus | string;
  channel?: number;
  sendTimeType?: 'NOW' | 'SCHEDULED' | string;
  type?: 'REGULAR' | 'A_B_TEST' | string;
  proportion?: number;
  scheduledDate?: string;
  sentBeginDate?: string;
  sentEndDate?: string;
  updateDate?: string;
}

export interface DeleteCampaignsResult {
  success: string[];
  sendingCampaign: string[];
  badCampaigns: string[];
}

export interface CampaignCode {
  sn: string;
  name: string;
  sentBeginDate?: string;
  sentEndDate?: string;
}

export interface CampaignMetrics {
  campaignSn: string;
  name: string;
  channel: 'MAIL' | 'SMS' | string;
  subject?: string;
  sentStartAt?: string;
  sentEndAt?: string;
  reportType: 'TOTAL' | 'TEST_A' | 'TEST_B' | 'WINNING' | string;
  recipientCnt: number;
  delivered: number;
  bounced: number;
  opened: number;
  clicked: number;
  distinctClickCnt?: number;
  duplicateClickCnt?: number;
  complained: number;
  unsubscribed: number;
  transactions?: number;
  transactionRevenue?: number;
}

export type ReportType = 'delivery' | 'open' | 'click' | 'bounce' | 'unsubscribe' | 'complain';
export interface ReportLink {
  reportType: ReportType | string;
  link: string;
  createdDate?: string;
}

export interface Template {
  id: string;
  name: string;
  template?: string;
  updateDate?: string;
}

export interface TemplateList {
  /** null: the service gave none. */
  capacity: number | null;
  templates: Template[];
}

export interface AutomationRecipient {
  name?: string;
  address: string;
  variables?: Record<string, string>;
}

export interface AutomationRequest {
  workflow: string;
  event: 'TRIGGER' | 'TERMINATE';
  recipients: AutomationRecipient[];
}

export interface SendOutcome {
  success: string[];
  failure: Record<string, string>;
}

export interface Balance {
  /** null: the service gave no figure (never read as 0). */
  email: number | null;
  sms: number | null;
}

/** A custom field of the sandbox's back office (its own route, not the spec). */
export interface SandboxField {
  name: string;
  type: string;
  createDate?: string;
}
