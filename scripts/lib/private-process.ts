// Imported first by each script that writes under DATA_DIR (npm start, db:migrate, backup,
// restore): what the process creates from then on is its account's only (umask 077), before any
// other module has had a chance to create a folder (lib/server/private-files.ts, #32 finding 1).
import { makeProcessPrivate } from "../../lib/server/private-files";

makeProcessPrivate();
