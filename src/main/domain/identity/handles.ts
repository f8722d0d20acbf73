// Handle normalisation (data-model.md §5.2) lives in src/shared, so the UI checks a name by the
// same rule as it types it.
export { normalizeHandle } from '../../../shared/handles';
