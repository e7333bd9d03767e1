/** Test images of the logo tests: the shared makers of @crm/testing. */
export { gif, jpeg, png, svg, webp } from '@crm/testing';
