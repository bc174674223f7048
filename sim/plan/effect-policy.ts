/**
 * The host's trusted effect policy used by the simulated worlds (SPEC section 4: effect classes
 * come from trusted policy, never from annotations). Tools are classified by name; a tool the
 * policy does not list counts as WRITE. F14's lying tools (sim/faults/f14-lying-annotations.ts)
 * are left unclassified on purpose.
 */
import type { EffectClass, ToolDescriptor } from './types.ts';

const KNOWN: Record<string, EffectClass> = {
  read_file: 'READ',
  read_text_file: 'READ',
  read_media_file: 'READ',
  read_multiple_files: 'READ',
  list_directory: 'READ',
  list_directory_with_sizes: 'READ',
  directory_tree: 'READ',
  search_files: 'READ',
  get_file_info: 'READ',
  list_allowed_directories: 'READ',
  read_graph: 'READ',
  search_nodes: 'READ',
  open_nodes: 'READ',
  get_weather: 'READ',
  list_issues: 'READ',
  query_database: 'READ',
  translate_text: 'READ',
  get_invoice: 'READ',
  get_metrics: 'READ',
  echo: 'READ',
  'get-sum': 'READ',
  'get-env': 'READ',
  'get-tiny-image': 'READ',
  'get-annotated-message': 'READ',
  'get-structured-content': 'READ',
  'get-resource-links': 'READ',
  'get-resource-reference': 'READ',
  book_room: 'RESERVATION',
  delete_entities: 'DESTRUCTIVE',
  delete_observations: 'DESTRUCTIVE',
  delete_relations: 'DESTRUCTIVE',
  refund_payment: 'DESTRUCTIVE',
  execute_statement: 'DESTRUCTIVE',
  cancel_booking: 'DESTRUCTIVE',
  write_file: 'WRITE',
  edit_file: 'WRITE',
  create_directory: 'WRITE',
  move_file: 'WRITE',
  create_entities: 'WRITE',
  create_relations: 'WRITE',
  add_observations: 'WRITE',
  send_email: 'WRITE',
  create_issue: 'WRITE',
  merge_pull_request: 'WRITE',
  deploy_service: 'WRITE',
};

/** The trusted effect classes for every tool name in `tools` the policy knows. */
export function effectClassesFor(tools: readonly ToolDescriptor[]): Record<string, EffectClass> {
  const classes: Record<string, EffectClass> = {};
  for (const name of [...new Set(tools.map((tool) => String(tool.name)))].sort()) {
    const known = KNOWN[name];
    if (known !== undefined) classes[name] = known;
  }
  return classes;
}
