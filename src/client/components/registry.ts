/**
 * THE component registry (DESIGN §1.2), as the app, the designer and Storybook import it: every component a
 * schema may name in `x-component` / `x-decorator`, each registered once (components/catalog.tsx, with the
 * API of components/registration.ts), and what is derived from the registrations:
 *
 * - `components`: name → React component. Dotted names resolve through sub-components (`Input.TextArea`,
 *   `Radio.Group`, `ArrayTable.Column`, `FormTab.TabPane` ...).
 * - `SchemaField`: `createSchemaField({ components })`, with the CSP-safe expression compiler registered.
 * - `registryEntries()`: `{ name, title: {zh, en}, group }` of every name.
 * - `paletteItems()`, `canvasKinds()`: the designer's palette (with each item's settings and rules) and
 *   canvas (designer/palette.ts, designer/canvas.tsx).
 * - `resolveComponent(name)`: the component a (dotted) name denotes, or undefined.
 * - `registerComponent(registration)`: one more component (a test, a plug-in); `unregisterComponent(name)`
 *   withdraws one, `registeredNames()` lists them.
 */
import './catalog.js';

export {
  canvasKinds,
  components,
  paletteItems,
  REGISTRY_GROUPS,
  registerComponent,
  registeredNames,
  registryEntries,
  registryVersion,
  resolveComponent,
  SchemaField,
  SETTINGS_LIMITS,
  unregisterComponent,
  type Bound,
  type CanvasKind,
  type ComponentRegistration,
  type DesignerSpec,
  type Localized,
  type OptionsSetting,
  type PaletteItem,
  type PaletteSpec,
  type RegistryEntry,
  type RegistryGroup,
  type SettingField,
  type SettingsSpec,
  type TextRef,
} from './registration.js';
