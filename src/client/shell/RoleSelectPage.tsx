/**
 * /home — role selection (spec 000 §2.6, §6): a user holding several roles chooses the one to work as; the
 * choice is stored as the current role (and other open tabs reload). With one role there is nothing to
 * choose: it is taken and the user goes on to the home page.
 */
import { useEffect } from 'react';
import { Button, Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { mutate } from 'swr';
import { roleLabel, updateSession, useSession } from '../runtime/session.js';
import { takeReturn } from './return-to.js';

export function RoleSelectPage() {
  const { t } = useTranslation();
  const s = useSession();
  const navigate = useNavigate();

  const choose = (id: string) => {
    updateSession({ currentRoleId: id, tags: [] });
    void mutate(() => true, undefined, { revalidate: false });
    navigate(takeReturn('/wel/index'), { replace: true });
  };

  useEffect(() => {
    if (s.roles.length === 1 && !s.currentRoleId) choose(s.roles[0].id);
  }, [s.roles.length]);

  return (
    <div className="kc-login">
      <Card className="kc-login-card" title={t('roles.title')}>
        <Typography.Paragraph type="secondary">{s.user?.realName}</Typography.Paragraph>
        <List
          dataSource={s.roles}
          renderItem={(r) => (
            <List.Item
              actions={[
                <Button key="enter" type={r.id === s.currentRoleId ? 'primary' : 'default'} onClick={() => choose(r.id)}>
                  {t('roles.enter')}
                </Button>,
              ]}
            >
              {/* the role's name in the screen's language, never its alias (issue 18 defect 11) */}
              <List.Item.Meta title={roleLabel(r, s.lang)} />
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}
