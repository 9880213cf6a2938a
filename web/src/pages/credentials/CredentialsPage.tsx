// Replaced by the area's page in issue 26.
export { default } from '../placeholder/PlaceholderPage';
