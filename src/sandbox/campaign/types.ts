// The campaign service's response shapes as the sandbox reads spec 000 (section 2 and the
// endpoints of section 4), written here on purpose rather than taken from the client
// (src/api/campaign-types.ts): the client reads tolerantly and the sandbox answers exactly, so
// the two must not share one reading. Alternate shapes the client must also accept are served
// by ../shapes.ts.

/** Section 2, Group. The sandbox always fills every field. */
export interface Group {
  sn: string;
  name: string;
  /** 0 general group; 1 auto-segment group (not yet open). */
  type: number;
  status: 'GENERAL' | 'PROCESSING';
  subscribedCnt: number;
  excludeCnt: number;
  openedRate: number;
  clickedRate: number;
  /** "present in list output, undocumented". */
  segVersion: number;
  createDate: string;
  updateDate: string;
}

/** Section 3, import statuses. */
export type ImportStatus = 'UPLOADING' | 'PROCESSING' | 'COMPLETE' | 'DUPLICATE_HEADER' | 'ERROR' | 'MISSING_REQUIRED_DATA';

/** Section 2, Import: the body of endpoint 5 and of the import webhook (section 6). */
export interface ImportResult {
  importSn: string;
  status: ImportStatus;
  fileCnt: number;
  insertCnt: number;
  duplicateCnt: number;
  errCnt: number;
  createDate: string;
  completedDate?: string;
  errorDownloadLink?: string;
}

/** Section 3, campaign statuses. */
export type CampaignStatus =
  | 'DRAFT' | 'COMPLETE' | 'STOP' | 'SENDING' | 'PREPARE' | 'PREPARE_TO_SENT' | 'OVER_LIMIT' | 'TESTING'
  | 'EMPTY_RECIPIENT' | 'INSUFFICIENT_RECIPIENT_FOR_TESTING' | 'UNAUTHENTICATED_SENDER';

/** Section 2, Campaign (status lookup item, endpoint 13). Dates without a value are left out. */
export interface Campaign {
  sn: string;
  name: string;
  /** "array of boolean (documented as string)": the sandbox sends the array. */
  hasContent: boolean[];
  status: CampaignStatus;
  /** 0 email, 1 SMS. */
  channel: 0 | 1;
  sendTimeType: 'NOW' | 'SCHEDULED';
  type: 'REGULAR' | 'A_B_TEST';
  proportion: number;
  scheduledDate?: string;
  sentBeginDate?: string;
  sentEndDate?: string;
  updateDate: string;
}

/** Endpoint 15, one metrics item. `subject`, the times and the e-commerce numbers may be absent. */
export interface CampaignMetrics {
  campaignSn: string;
  name: string;
  channel: 'MAIL' | 'SMS';
  subject?: string;
  /** UTC, yyyy/MM/dd HH:mm:ss. */
  sentStartAt?: string;
  sentEndAt?: string;
  reportType: 'TOTAL' | 'TEST_A' | 'TEST_B' | 'WINNING';
  recipientCnt: number;
  delivered: number;
  bounced: number;
  opened: number;
  clicked: number;
  distinctClickCnt: number;
  duplicateClickCnt: number;
  complained: number;
  unsubscribed: number;
  transactions?: number;
  transactionRevenue?: number;
}

/** Section 2, report link item (endpoint 17). */
export interface ReportLink {
  reportType: 'delivery' | 'open' | 'click' | 'bounce' | 'unsubscribe' | 'complain';
  link: string;
  createdDate: string;
}

/** Section 2, Template (endpoints 18 and 19). */
export interface Template {
  id: string;
  name: string;
  /** html */
  template: string;
  updateDate: string;
}
