/// <reference types="vite/client" />
/**
 * The platform's component catalogue, one `registerComponent` call each (DESIGN §1.2; the API is in
 * components/registration.ts): the @formily/antd-v5 set plus ours (DictSelect, DeptTreeSelect,
 * ResourceTreeSelect, ResourceSelect, RegionCascader, FileUpload, ProjectPicker, UserPicker, Card, Text, a Switch that reads
 * 是 / 否 in readPretty, Rate, Slider, ColorPicker, IconSelect, RichText, LocationInput, Chart, RemoteTable,
 * ExamineTimeline). Each call carries the component, its title and group, its sub-components, its palette
 * items (the designer's palette of spec 002 §2: layout, input, choice, upload, date and time, rich text,
 * others, business — variants of a component are items of its registration with other props: `DatePicker`
 * with `picker: 'year'`, `Select` with `mode: 'tags'` for the array of texts, `FileUpload` with
 * `accept: 'image/*'` for images), the settings of its nodes (spec 002 §3), its designer rules (spec 002 §5)
 * and its texts. Adding a component is one more call in the file of its palette group.
 *
 * The calls are in one file per palette group, under components/catalog/: layout.tsx (layout and sub-forms),
 * input.tsx, choice.tsx, upload.tsx, date-time.tsx, rich-text.tsx, others.tsx, business.tsx, and what they share
 * in helpers.ts. Each exports its group's `register…()`, which this module calls in the palette's order of groups.
 *
 * Importing this module registers them; components/registry.ts imports it, so whoever imports the registry
 * sees every component. Under Vite's dev server the module accepts its own hot updates (and those of the
 * group files and component files it imports): the old registrations are withdrawn, the new ones made — every
 * group again, in the same order —, and the live `components` map gives SchemaField the edited components.
 */
import { registeredNames, unregisterComponent } from './registration.js';
import { registerLayout } from './catalog/layout.js';
import { registerInput } from './catalog/input.js';
import { registerChoice } from './catalog/choice.js';
import { registerUpload } from './catalog/upload.js';
import { registerDateTime } from './catalog/date-time.js';
import { registerRichText } from './catalog/rich-text.js';
import { registerOthers } from './catalog/others.js';
import { registerBusiness } from './catalog/business.js';

// the palette's groups in their order (spec 002 §2); each file registers one group's components
registerLayout();
registerInput();
registerChoice();
registerUpload();
registerDateTime();
registerRichText();
registerOthers();
registerBusiness();

if (import.meta.hot) {
  const mine = registeredNames();
  import.meta.hot.dispose(() => mine.forEach(unregisterComponent));
  import.meta.hot.accept();
}
