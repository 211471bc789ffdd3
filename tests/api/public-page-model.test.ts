// The public pages' reads on PostgreSQL (tests/helpers/public-page-model-suite.ts).
import { describePublicPageModel } from "../helpers/public-page-model-suite";

describePublicPageModel("PostgreSQL");
