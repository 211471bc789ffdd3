// The public pages' reads on the embedded default (tests/helpers/public-page-model-suite.ts).
import { describePublicPageModel } from "../helpers/public-page-model-suite";

describePublicPageModel("PGlite");
