// Spec 000 endpoints 7-10: one request shape, four paths (regular or A/B, to groups or to an
// uploaded list). Data only, apart from the client, so what reads a path (the CLI's words for an
// error about a campaign created) does not load the API client for it.

export type SubmitEndpoint = 7 | 8 | 9 | 10;
export const SUBMIT_PATHS: Record<SubmitEndpoint, string> = {
  7: '/v1/campaign/normal/submit',
  8: '/v1/campaign/normal/once',
  9: '/v1/campaign/testing/submit',
  10: '/v1/campaign/testing/once',
};

/** Whether a request to the campaign service made a campaign (endpoints 7-10). */
export const createsCampaign = (r: { service: string; path: string }): boolean =>
  r.service === 'campaign' && (Object.values(SUBMIT_PATHS) as string[]).includes(r.path);
