/** Short names as glibc expands them: the shared logic (shared/search-list.ts), re-exported for the panels. */
export { dotCount, isRelativeName, isShortName, ndotsWords, parseSearchConfig, searchCandidates, searchOutcomeOf, searchWalk, svcHint, type SearchConfig, type SearchOutcome, type SearchStep } from '../../../shared/search-list';
