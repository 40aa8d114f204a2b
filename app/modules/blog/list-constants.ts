/** Spec §9: first shown 6, load-more step 3, related 3. */
export const FIRST_SHOWN = 6;
export const LOAD_MORE_STEP = 3;
export const RELATED_COUNT = 3;
/** Upper bound for ?show= so a crafted URL cannot ask for every article at once. */
export const MAX_SHOWN = 240;
