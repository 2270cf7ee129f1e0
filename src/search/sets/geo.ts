/** Mean Earth radius (km), the sphere every distance of the API is measured on. */
export const EARTH_RADIUS_KM = 6371.0088;
const DEGREE = Math.PI / 180;

/** Great-circle (haversine) distance in km: `near`/`radius` and `sort=distance` (SPEC §6). */
export function distanceKm(from: { lat: number; lon: number }, to: { lat: number; lon: number }): number {
  const a =
    Math.sin(((to.lat - from.lat) * DEGREE) / 2) ** 2 +
    Math.cos(from.lat * DEGREE) *
      Math.cos(to.lat * DEGREE) *
      Math.sin(((to.lon - from.lon) * DEGREE) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, a)));
}
