// The app's version, from package.json (bundled at build time).
import packageJson from '../../package.json';

export const APP_VERSION: string = packageJson.version;
