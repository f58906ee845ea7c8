// The campaign service emulator (spec 000), assembled from one file per area.
import type { ServiceModule } from '../types.js';
import type { CampaignState } from './state.js';
import { SEED_FIELDS, SEED_TEMPLATES, START_BALANCE, TEMPLATE_CAPACITY } from './seed.js';
import { groupRoutes } from './groups.js';
import { fieldRoutes } from './fields.js';
import { advanceImports, importRoutes, importUploaded } from './imports.js';
import { removeRoutes } from './contacts-remove.js';
import { accountRoutes } from './account.js';
import { automationRoutes } from './automation.js';
import { campaignRoutes } from './campaigns.js';
import { advanceExports, reportRoutes } from './reports.js';
import { advanceCampaigns, onceListUploaded } from './campaign-send.js';

export const campaignModule: ServiceModule<CampaignState> = {
  initialState: () => ({
    groups: [],
    contacts: {},
    fields: structuredClone(SEED_FIELDS),
    imports: [],
    campaigns: [],
    balance: { ...START_BALANCE },
    templates: structuredClone(SEED_TEMPLATES),
    capacity: TEMPLATE_CAPACITY,
  }),
  routes: [...groupRoutes, ...fieldRoutes, ...importRoutes, ...removeRoutes, ...campaignRoutes, ...reportRoutes, ...automationRoutes, ...accountRoutes],
  async advance(ctx) {
    await advanceImports(ctx);
    await advanceCampaigns(ctx);
    await advanceExports(ctx);
  },
  onUpload(ctx, _token, target) {
    if (target.kind === 'import') importUploaded(ctx, target);
    else if (target.kind === 'once-campaign') onceListUploaded(ctx, target);
  },
};
