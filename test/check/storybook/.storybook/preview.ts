// #region readme
// .storybook/preview.ts: msw-storybook-addon 3 exports its loader for CSF 3 stories from "msw-storybook-addon/csf3".
import type { Preview } from "@storybook/react-vite";
import { mswLoader } from "msw-storybook-addon/csf3";

const preview: Preview = {
  loaders: [mswLoader()],
};
export default preview;
// #endregion readme
