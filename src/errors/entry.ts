/** One kind of error: what it means, and what the user (or the maintainer) does about it. */
export interface CatalogEntry {
  readonly meaning: string;
  readonly fix: string;
}
