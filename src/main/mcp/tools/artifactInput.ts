// The workflow-artifact input of publish_room_artifact and update_task: the app's strict
// artifact schema (data-model.md §4.6) with every nested field described.
import { z } from 'zod';
import { MAX_WORKFLOW_ARTIFACTS, workflowArtifactSchema } from '../../domain/tasks/workflowArtifacts';
import { listedAs } from '../jsonSchema';

const field = workflowArtifactSchema.shape;

export const artifactInput = z.strictObject({
  provider: field.provider.describe('Code host.'),
  kind: field.kind.describe('What it is.'),
  id: field.id.describe('The host\'s id.'),
  number: field.number.describe('PR or issue number.'),
  title: field.title.describe('Its title.'),
  url: field.url.describe('Its web page.'),
  ref: field.ref.describe('Branch or commit.'),
  state: field.state.describe('e.g. open, merged.'),
});

const LIST_DESCRIPTION = 'Replaces its artifacts (items as publish_room_artifact\'s artifact).';
/** Checked item by item; listed briefly, since publish_room_artifact lists the item shape. */
export const artifactListInput = listedAs(
  z.array(artifactInput).max(MAX_WORKFLOW_ARTIFACTS).optional().describe(LIST_DESCRIPTION),
  { type: 'array', maxItems: MAX_WORKFLOW_ARTIFACTS, items: { type: 'object' }, description: LIST_DESCRIPTION },
);
