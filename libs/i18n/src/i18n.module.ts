import { DynamicModule, Inject, Module, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AcceptLanguageResolver,
  I18N_LOADER_OPTIONS,
  I18nLoader,
  I18nModule,
  I18nTranslation,
} from 'nestjs-i18n';
import { FALLBACK_LANGUAGE } from './language';

/** The catalogue shared by every service: errors, validation rules, headers. */
export const SHARED_LOCALES_DIR = path.join(__dirname, 'locales');

interface MergingLoaderOptions {
  dirs: string[];
}

/**
 * Loads `<dir>/<lang>/<namespace>.json` from several folders and merges them, so each app can
 * ship the texts of its own domain beside the shared catalogue.
 */
export class MergingJsonLoader extends I18nLoader {
  constructor(@Inject(I18N_LOADER_OPTIONS) private readonly options: MergingLoaderOptions) {
    super();
  }

  override async languages(): Promise<string[]> {
    const langs = new Set<string>();
    for (const dir of this.options.dirs)
      if (existsSync(dir)) readdirSync(dir).forEach((l) => langs.add(l));
    return [...langs];
  }

  override async load(): Promise<I18nTranslation> {
    const out: I18nTranslation = {};
    for (const dir of this.options.dirs) {
      if (!existsSync(dir)) continue;
      for (const lang of readdirSync(dir)) {
        const target = (out[lang] ??= {}) as I18nTranslation;
        for (const file of readdirSync(path.join(dir, lang)).filter((f) => f.endsWith('.json'))) {
          const ns = file.replace(/\.json$/, '');
          const content = JSON.parse(readFileSync(path.join(dir, lang, file), 'utf8'));
          target[ns] = { ...((target[ns] as I18nTranslation) ?? {}), ...content };
        }
      }
    }
    return out;
  }
}

/**
 * nestjs-i18n always registers a global interceptor that resolves each request's language into
 * its I18nContext. Nothing here reads I18nContext (the language comes from the request context and
 * is passed to every translation), and a global interceptor costs every request an rxjs pipeline
 * and an async-hooks resource: it is left out.
 */
function withoutLanguageInterceptor(module: DynamicModule): DynamicModule {
  const isInterceptor = (p: Provider) =>
    typeof p === 'object' && 'provide' in p && p.provide === APP_INTERCEPTOR;
  return { ...module, providers: (module.providers ?? []).filter((p) => !isInterceptor(p)) };
}

@Module({})
export class CrmI18nModule {
  /** @param localeDirs the app's own locale folders (same layout as the shared one) */
  static forRoot(localeDirs: string[] = []): DynamicModule {
    return {
      module: CrmI18nModule,
      global: true,
      imports: [
        withoutLanguageInterceptor(
          I18nModule.forRoot({
            fallbackLanguage: FALLBACK_LANGUAGE,
            loader: MergingJsonLoader,
            loaderOptions: {
              dirs: [SHARED_LOCALES_DIR, ...localeDirs],
            } satisfies MergingLoaderOptions,
            // The language comes from the request context (Accept-Language), resolved once there.
            disableMiddleware: true,
            resolvers: [AcceptLanguageResolver],
            logging: false,
          }),
        ),
      ],
      exports: [I18nModule],
    };
  }
}
