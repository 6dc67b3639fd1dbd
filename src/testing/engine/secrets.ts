/**
 * Encryption of secret values in the state file, in the manner of Pulumi's passphrase secrets
 * provider: a key derived with scrypt from a passphrase and a per-state salt, AES-256-GCM per value,
 * and the value stored as `{ <sig>: <secret sig>, ciphertext }` so the plaintext never reaches disk.
 */
import * as crypto from "node:crypto";
import { isObject, isSecret, mapValues, secret, SECRET_SIG, SIG_KEY, type PropertyMap, type PropertyValue } from "./values";
import { SvcError } from "../../errors";

/** Used when neither the option nor PULUMI_CONFIG_PASSPHRASE gives one: test state only needs to keep plaintext off disk. */
export const DEFAULT_PASSPHRASE = "pulumi-svc-testing";

export class SecretsCipher {
  private readonly key: Buffer;

  constructor(
    passphrase: string,
    readonly salt: string,
  ) {
    this.key = crypto.scryptSync(passphrase, Buffer.from(salt, "base64"), 32);
  }

  static newSalt(): string {
    return crypto.randomBytes(16).toString("base64");
  }

  /** Replaces every secret in a property map by its encrypted form. */
  seal(m: PropertyMap): PropertyMap {
    return this.sealValue(m) as PropertyMap;
  }

  /** Replaces every encrypted secret by the live secret marking; fails on a wrong passphrase. */
  open(m: PropertyMap): PropertyMap {
    return this.openValue(m) as PropertyMap;
  }

  private sealValue(v: PropertyValue): PropertyValue {
    if (isSecret(v)) return { [SIG_KEY]: SECRET_SIG, ciphertext: this.encrypt(JSON.stringify(v.value ?? null)) };
    if (Array.isArray(v)) return v.map((x) => this.sealValue(x));
    if (isObject(v)) return mapValues(v, (x) => this.sealValue(x));
    return v;
  }

  private openValue(v: PropertyValue): PropertyValue {
    if (isSecret(v) && typeof v.ciphertext === "string") return secret(JSON.parse(this.decrypt(v.ciphertext)) as PropertyValue);
    if (Array.isArray(v)) return v.map((x) => this.openValue(x));
    if (isObject(v)) return mapValues(v, (x) => this.openValue(x));
    return v;
  }

  private encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `v1:${iv.toString("base64")}:${Buffer.concat([body, cipher.getAuthTag()]).toString("base64")}`;
  }

  private decrypt(text: string): string {
    const [version, ivText, bodyText] = text.split(":");
    if (version !== "v1" || !ivText || !bodyText) throw new SvcError("SVC_STATE_CIPHERTEXT_INVALID", "unrecognised ciphertext in the state file");
    const raw = Buffer.from(bodyText, "base64");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.key, Buffer.from(ivText, "base64"));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    try {
      return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 16)), decipher.final()]).toString("utf8");
    } catch {
      throw new SvcError("SVC_STATE_PASSPHRASE_WRONG", "cannot decrypt the secrets in the state file: the passphrase differs from the one that wrote it");
    }
  }
}
