/**
 * LocationInput: the palette's "map" field (spec 002 §2) as a place a person can type: an address with its
 * longitude and latitude. Value `{ address, longitude, latitude }` (an object; the numbers in degrees, WGS-84).
 * The platform runs offline (no map tiles from the internet), so there is no map to click; coordinates are
 * entered (or pasted) and checked for range (longitude −180…180, latitude −90…90).
 * readPretty shows `address (longitude, latitude)`.
 */
import React from 'react';
import { Input, InputNumber, Space } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';

export interface Location {
  address?: string;
  longitude?: number | null;
  latitude?: number | null;
}

export interface LocationInputProps {
  value?: Location | null;
  onChange?: (value: Location) => void;
  disabled?: boolean;
  readOnly?: boolean;
}

function LocationEditor({ value, onChange, disabled, readOnly }: LocationInputProps) {
  const { t } = useTranslation();
  const v = value ?? {};
  const set = (patch: Partial<Location>) => onChange?.({ ...v, ...patch });
  return (
    <Space.Compact style={{ width: '100%' }} className="kc-location-input">
      <Input
        style={{ width: '50%' }}
        placeholder={t('cmp.location.address')}
        aria-label={t('cmp.location.address')}
        value={v.address}
        disabled={disabled}
        readOnly={readOnly}
        onChange={(e) => set({ address: e.target.value })}
      />
      <InputNumber
        style={{ width: '25%' }}
        placeholder={t('cmp.location.longitude')}
        aria-label={t('cmp.location.longitude')}
        min={-180}
        max={180}
        precision={6}
        value={v.longitude ?? null}
        disabled={disabled}
        readOnly={readOnly}
        onChange={(n) => set({ longitude: n ?? null })}
      />
      <InputNumber
        style={{ width: '25%' }}
        placeholder={t('cmp.location.latitude')}
        aria-label={t('cmp.location.latitude')}
        min={-90}
        max={90}
        precision={6}
        value={v.latitude ?? null}
        disabled={disabled}
        readOnly={readOnly}
        onChange={(n) => set({ latitude: n ?? null })}
      />
    </Space.Compact>
  );
}

function LocationText({ value }: LocationInputProps) {
  const placeholder = PreviewText.usePlaceholder();
  if (!value || (!value.address && value.longitude == null && value.latitude == null)) return <span>{placeholder}</span>;
  const coords = value.longitude != null && value.latitude != null ? ` (${value.longitude}, ${value.latitude})` : '';
  return <span>{`${value.address ?? ''}${coords}`.trim()}</span>;
}

export const LocationInput = connect(LocationEditor, mapReadPretty(LocationText));
