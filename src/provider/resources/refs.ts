/** Asset references: programs may name an asset or give its KRN; the wire always carries the KRN. */
import { ASSET_KRN_PATTERN, assetKrnOf } from "../../api/common";

export const toAssetKrn = (ref: string): string => (ref.startsWith("krn:") ? ref : assetKrnOf(ref));

/** The user's reference as written if it names the same asset as the platform's KRN. */
export const sameAsset = (userRef: string, krn: string): boolean => toAssetKrn(userRef) === krn;

export const isAssetRef = (ref: string): boolean => ASSET_KRN_PATTERN.test(toAssetKrn(ref));
